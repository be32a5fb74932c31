"""Reads, always scoped to one account: the SQL behind pages and API, a match as shown, its document, paging."""
