"""(being ported to theory.core: no PAPER declared yet)"""
