"""The HTTP concerns: static assets, ETags, security headers, what the host sees at start, the app's own files."""
