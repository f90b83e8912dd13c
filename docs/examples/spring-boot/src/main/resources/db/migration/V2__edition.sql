-- the shop's editions, looked up by ISBN
create table edition (
  id bigint primary key,
  isbn varchar(255),
  title varchar(255),
  author_id bigint not null,
  blurb varchar(2000)
);
create index edition_isbn on edition (isbn);
