"""The benchmark's app for gunicorn: configured, like the product, by SCOREKEEPER_* variables."""

from bench.app import bench_app

app = bench_app()
