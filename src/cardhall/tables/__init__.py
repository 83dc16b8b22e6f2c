"""The table runtime: one asyncio task per table owns its game state (design.md section 5)."""
