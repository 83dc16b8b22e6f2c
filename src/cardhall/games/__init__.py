"""Bazaar Blot, Soldier's Bluff and Palace Poker: one package per game."""
