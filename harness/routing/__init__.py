"""Routing: several skills installed side by side; does each prompt fire the right one?"""
