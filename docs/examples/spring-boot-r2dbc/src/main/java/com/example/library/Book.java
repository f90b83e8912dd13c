package com.example.library;

import org.springframework.data.annotation.Id;

public record Book(@Id Long id, Long authorId, String title) {
}
