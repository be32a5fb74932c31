"""The HTTP concerns: static assets, ETags, security headers, what the host sees at start, and where the app finds its files."""
