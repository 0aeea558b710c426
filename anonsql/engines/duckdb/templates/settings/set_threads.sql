SET threads = {{ threads | lit }}
