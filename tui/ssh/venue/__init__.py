"""A venue past one machine, on NATS: the table's publisher and the relays (docs/ssh.md, *A venue on NATS*)."""
