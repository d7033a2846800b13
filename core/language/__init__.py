"""Words in the reader's language: the reader and rendering (``i18n``), the catalogues
(``catalogues``, ``locale/``), their compiled form (``compiled``) and numbers (``numerals``)."""
