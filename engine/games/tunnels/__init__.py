"""The tunnels (seed 001): mortal warriors against the Demon and its troglodytes."""
