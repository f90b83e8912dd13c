CREATE TABLE IF NOT EXISTS author (id bigserial PRIMARY KEY, name text NOT NULL);
CREATE TABLE IF NOT EXISTS book (id bigserial PRIMARY KEY,
    author_id bigint NOT NULL REFERENCES author (id), title text NOT NULL);
