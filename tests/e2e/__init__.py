"""End-to-end tests: the app in a real browser (Chromium), offline."""
