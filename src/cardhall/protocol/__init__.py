"""The wire protocol shared by the server, the table runtime and the bot SDK.

:mod:`.messages` holds one pydantic model per WebSocket message in each direction and the
stable error and close codes. It sits below :mod:`cardhall.server`, so the table layer and the
SDK can build and parse messages without importing the web application.
"""
