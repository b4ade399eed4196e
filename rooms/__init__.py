"""Live interview rooms: two people edit one program together and grade it together."""
