-- the catalogue: 10 authors with 3 books each (Quarkus loads import.sql in dev and test modes)
insert into Author (id, name) select a, 'Author ' || a from generate_series(1, 10) a;
insert into Book (id, author_id, title) select (a - 1) * 3 + b, a, 'Book ' || b || ' of author ' || a from generate_series(1, 10) a, generate_series(1, 3) b;
