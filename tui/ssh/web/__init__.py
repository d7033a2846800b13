"""The browser door of ``fireteam serve --web PORT`` (docs/ssh.md, *Browser seats*).

``door`` serves the pages and joins each to a seat; ``gate`` holds its own limits on
connections that are not seats yet; ``plain`` is the page for screen readers; ``page/``
holds the pages' files (xterm.js vendored).
"""
