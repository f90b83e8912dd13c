package com.example.library;

import java.util.List;

/** What the catalogue page shows: an author and the titles of their books. */
public record AuthorWithTitles(String name, List<String> titles) {
}
