package com.example.library;

import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import java.util.List;

@Path("/catalogue")
public class LibraryResource {

  @Inject
  LibraryService library;

  /** GET /catalogue: every author with their titles, as JSON, from the event loop. */
  @GET
  public Uni<List<AuthorWithTitles>> catalogue() {
    return library.catalogue();
  }
}
