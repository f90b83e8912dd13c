package io.github.latencylab.demo;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * One row of an answer, as plain data (no entities, no proxies), so that the answers of all
 * strategies can be compared with {@code equals}.
 */
public sealed interface Listing permits Listing.AuthorWithBooks, Listing.BookWithAuthor {

  /** A book as the listings show it. */
  record BookSummary(long id, String title, int published) {

    static BookSummary of(Book book) {
      return new BookSummary(book.getId(), book.getTitle(), book.getPublished());
    }
  }

  /** An author and their books, ordered by id. */
  record AuthorWithBooks(long id, String name, List<BookSummary> books) implements Listing {

    public AuthorWithBooks {
      books = List.copyOf(books);
    }

    /** Reads the author and the collection given (touching it initializes it). */
    static AuthorWithBooks of(Author author, Collection<Book> books) {
      List<BookSummary> summaries = new ArrayList<>(books.size());
      for (Book book : books) {
        summaries.add(BookSummary.of(book));
      }
      summaries.sort(Comparator.comparingLong(BookSummary::id));
      return new AuthorWithBooks(author.getId(), author.getName(), summaries);
    }
  }

  /** A book and its author's name. */
  record BookWithAuthor(long id, String title, long authorId, String authorName)
      implements Listing {

    /** Reads the book and its author (touching a lazy author initializes it). */
    static BookWithAuthor of(Book book) {
      Author author = book.getAuthor();
      return new BookWithAuthor(book.getId(), book.getTitle(), author.getId(), author.getName());
    }
  }
}
