"""The demo catalogue `seed_demo` imports: invented companies of Spain (catalogue.py), their
names and words (demo_names.py, demo_names.toml) and their logos (demo_logos.py).
"""
