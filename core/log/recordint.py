"""The integers a save may hold.

Every integer in a record lies within JSON's exact integers: any reader of the
file (a browser's, a spreadsheet's) counts them exactly, a game counts far below
the bound, and sums of such numbers stay encodable.  The events' fields are
typed with :data:`RecordInt`, so the decoder itself refuses a number beyond it
(a hand-edited save, or damage that kept its check), in C, as it reads the field.
"""

from typing import Annotated

import msgspec

MAX_RECORD_INT = (1 << 53) - 1
RecordInt = Annotated[int, msgspec.Meta(ge=-MAX_RECORD_INT, le=MAX_RECORD_INT)]
