"""Who published a venue message (issue #75): a signature over the subject and the body, checked
against the key the message names (``tui.ssh.venue.signed``); every header is hostile input."""

from __future__ import annotations

import asyncssh

from tui.ssh.venue.signed import KEY_HEADER, MAX_KEY_CHARS, SIGNATURE_HEADER, signed_headers, signer

KEY = asyncssh.generate_private_key("ssh-ed25519")
OTHER = asyncssh.generate_private_key("ssh-ed25519")
SUBJECT, BODY = "fireteam.spectator.one", b'{"fireteam_copy": 1}'


def test_a_signed_message_names_its_key_s_fingerprint_and_the_same_body_on_another_subject_nobody():
    headers = signed_headers(KEY, SUBJECT, BODY)
    assert signer(SUBJECT, BODY, headers) == KEY.get_fingerprint()
    assert signer("fireteam.spectator.two", BODY, headers) is None  # one table's view is no other's
    assert signer(SUBJECT, BODY + b" ", headers) is None


def test_a_signature_is_believed_only_of_the_key_that_made_it_and_a_broken_header_is_nobody():
    mine, theirs = signed_headers(KEY, SUBJECT, BODY), signed_headers(OTHER, SUBJECT, BODY)
    swapped = {KEY_HEADER: theirs[KEY_HEADER], SIGNATURE_HEADER: mine[SIGNATURE_HEADER]}
    assert signer(SUBJECT, BODY, swapped) is None
    for broken in (
        None,
        {},
        {KEY_HEADER: mine[KEY_HEADER]},
        {**mine, SIGNATURE_HEADER: "not base64!"},
        {**mine, KEY_HEADER: "ssh-ed25519 AAAA"},
        {**mine, KEY_HEADER: KEY.export_private_key().decode()},
        {**mine, KEY_HEADER: mine[KEY_HEADER] + " " + "x" * MAX_KEY_CHARS},
    ):
        assert signer(SUBJECT, BODY, broken) is None, broken
