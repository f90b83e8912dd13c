-- the catalogue the tests read: 10 authors with 3 books each
insert into author (id, name)
select nextval('author_ids'), 'Author ' || a from generate_series(1, 10) a;
insert into book (id, author_id, title)
select nextval('book_ids'), author.id, 'Book ' || b || ' of ' || lower(author.name)
from author, generate_series(1, 3) b
order by author.id, b;
