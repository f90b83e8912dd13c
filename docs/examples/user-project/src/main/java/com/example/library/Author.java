package com.example.library;

import java.util.List;

/** An author with the titles of their books, as the service lists them. */
public record Author(long id, String name, List<String> titles) {

  public Author {
    titles = List.copyOf(titles);
  }
}
