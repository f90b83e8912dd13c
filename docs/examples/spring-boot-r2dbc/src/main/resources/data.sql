TRUNCATE book, author RESTART IDENTITY;
INSERT INTO author (name) SELECT 'author ' || i FROM generate_series(1, 10) i;
INSERT INTO book (author_id, title) SELECT a, 'book ' || a || '.' || b
    FROM generate_series(1, 10) a, generate_series(1, 2) b;
