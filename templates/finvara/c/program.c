/* {{ header }}
 * {{ summary }}
 * Build: cc -std=c99 -O2 program.c -o program. Runtime errors exit with status 1. */
{{ runtime }}
/* ---- the program ---- */
{% for a in arrays %}
/* path program of {{ a.comment }} */
static const int32_t {{ a.name }}[{{ a.len }}] = {
{{ a.body }}
};
{% endfor %}
static const icp_kind icp_kinds[{{ nkinds }}] = {
{%- for k in kinds %}
    {{ k }}
{%- endfor %}
};

/* {{ width }} columns x {{ height }} rows, row a (1) first */
static const int32_t icp_cells[{{ ncells }}] = {
{{ cells }}
};

{{ moves }}

int main(void) {
    static icp_game icp_game_state;
    icp_game *g = &icp_game_state;
    long icp_pc = 0;
    icp_game_init(g, icp_kinds, {{ nkinds }}, {{ width }}, {{ height }}, icp_cells);
    /* Section 5.4: the game is checked before every move, and before the
     * first; a move number past the last ends the program. */
    while (icp_pc >= 0 && !icp_game_over(g)) {
        icp_pc = icp_move(g, icp_pc);
    }
    if (fflush(stdout) != 0) {
        fputs("error: cannot write standard output\n", stderr);
        return 1;
    }
    return 0;
}
