"""Exports of a pack's drawn faces for other places: virtual tables (tts) and the groups
(decks) that exports and print vendors share."""
