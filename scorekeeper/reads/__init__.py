"""Reads, always scoped to one account: the SQL behind the pages and the API, a match as shown, its document, and paging."""
