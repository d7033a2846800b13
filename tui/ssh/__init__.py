"""The SSH server: hosts the client for several seats (see docs/ssh.md)."""
