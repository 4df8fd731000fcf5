/**
 * A table's sideways scroll box. `relative`: a table's screen-reader caption and header text are
 * absolutely positioned, and would otherwise escape the box and widen the whole page on a phone.
 */
export const TABLE_SCROLL = "relative overflow-x-auto";
