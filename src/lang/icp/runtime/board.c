/* ------------------------------------------------------------------------
 * InfChessPro board runtime of icp2c, plain C99, needing only libc: the C
 * port of board.rs, function for function. Pasted into a generated
 * program cut to the sections it uses (the @section markers; icp2c's
 * table of runtime entry points says which section holds what a program
 * calls; the kinds and colours it places select the move rules it
 * carries). Implements docs/runtime-design.md; the language is the one
 * icp2c's reference docs/infchesspro.md defines, whose sections are cited
 * as §n.
 * ------------------------------------------------------------------------ */
/* @section core: prelude_stdout prelude_write_failure */
/* @end core */
