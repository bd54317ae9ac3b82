"""The full-text backends: which entries hold a query's words (SQLite FTS5 with bm25, ``SqliteBackend``;
PostgreSQL full-text search, ``PostgresBackend``). They only choose the candidates; ``rulings.ranking``
orders them the same way on both."""

from __future__ import annotations

from django.db import connection

from .. import query as q


def _scope_sql(where: list[str], *, game: str | None, document_id: int | None) -> tuple[list[str], list]:
    """The index rows a search may return: one document, else the current editions; one game if given."""
    params: list = []
    if document_id:
        where.append("s.document_id = %s")
        params.append(document_id)
    else:
        where.append("s.is_current")
    if game:
        where.append("s.game = %s")
        params.append(game)
    return where, params


ALL, MOST, ANY = "all", "most", "any"  # every term; all terms but one; any term


def _combine(parts: list[str], mode: str, *, and_: str, or_: str) -> str:
    """Terms' expressions joined: all of them, any of them, or all but one (any of the clauses that
    leave one out), which finds the entries that miss one word of a question without the flood of
    entries that share only its commonest word."""
    if mode == MOST and len(parts) >= 3:
        return or_.join(
            "(" + and_.join(part for j, part in enumerate(parts) if j != i) + ")" for i in range(len(parts))
        )
    return (or_ if mode in (ANY, MOST) else and_).join(parts)


class Backend:
    """What both backends share: one query answers every mode asked (all words, all but one, any),
    the backend's best ``limit`` entries for each, as (entry id, score), best first within each mode
    (an entry may come more than once). The final order is ``rulings.ranking``'s."""

    match_sql = ""

    def expression(self, query: q.Query, *, mode: str = ALL, prefix_last: bool = True) -> str:
        raise NotImplementedError

    def one_select(self, where: str) -> str:
        raise NotImplementedError

    def values(self, expression: str, params: list, limit: int) -> list:
        raise NotImplementedError

    @staticmethod
    def better_is_higher(score: float) -> float:
        raise NotImplementedError

    def match(
        self, query: q.Query, *, modes: list[str], game: str | None, document_id: int | None, limit: int
    ) -> list[tuple[int, float]]:
        expressions = list(dict.fromkeys(e for mode in modes if (e := self.expression(query, mode=mode))))
        if not expressions:
            return []
        where, params = _scope_sql([self.match_sql], game=game, document_id=document_id)
        sql = " UNION ALL ".join([self.one_select(" AND ".join(where))] * len(expressions))
        values = [v for e in expressions for v in self.values(e, params, limit)]
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            return [(entry_id, self.better_is_higher(score)) for entry_id, score in cursor.fetchall()]


class SqliteBackend(Backend):
    """FTS5 over ``rulings_searchindex`` (external content), bm25 with column weights."""

    weights = (10.0, 4.0, 1.0)  # title, names, body

    @staticmethod
    def _quote(word: str) -> str:
        return '"' + word.replace('"', '""') + '"'

    def expression(self, query: q.Query, *, mode: str = ALL, prefix_last: bool = True) -> str:
        parts = []
        terms = q.required(list(query.terms))
        for index, term in enumerate(terms):
            if term.is_group:  # "victory points": both words, anywhere
                options = ["(" + " AND ".join(self._quote(part) for part in term.parts) + ")"]
            else:
                options = [self._quote(term.word)]
                if prefix_last and index == len(terms) - 1 and len(term.word) >= 3:
                    # The index holds stems ("type") and a prefix is not stemmed: "types"* alone would
                    # miss "type"; the word itself is stemmed like the index.
                    options.append(self._quote(term.word) + "*")
            options += [self._quote(" ".join(q.words(alt))) for alt in term.alternatives if q.words(alt)]
            parts.append("(" + " OR ".join(options) + ")" if len(options) > 1 else options[0])
        return _combine(parts, mode, and_=" AND ", or_=" OR ")

    match_sql = "rulings_fts MATCH %s"

    def one_select(self, where: str) -> str:
        return (
            "SELECT * FROM (SELECT s.entry_id, bm25(rulings_fts, %s, %s, %s) AS score "
            "FROM rulings_fts JOIN rulings_searchindex s ON s.id = rulings_fts.rowid "
            f"WHERE {where} ORDER BY score LIMIT %s)"
        )

    def values(self, expression: str, params: list, limit: int) -> list:
        return [*self.weights, expression, *params, limit]

    @staticmethod
    def better_is_higher(score: float) -> float:
        return -score  # bm25: lower is better

    def rebuild(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO rulings_fts(rulings_fts) VALUES ('rebuild')")


class PostgresBackend(Backend):
    """A generated ``tsv`` column (title A, names B, body C) with GIN (the migration also adds a trigram
    index on titles)."""

    @staticmethod
    def _lexemes(text: str) -> list[str]:
        return q.tokens(text)

    def expression(self, query: q.Query, *, mode: str = ALL, prefix_last: bool = True) -> str:
        parts = []
        terms = q.required(list(query.terms))
        for index, term in enumerate(terms):
            if term.is_group:
                group = [w for part in term.parts for w in self._lexemes(part)]
                options = ["(" + " & ".join(group) + ")"] if group else []
            else:
                lexemes = self._lexemes(term.word)
                if not lexemes:
                    continue
                last = prefix_last and index == len(terms) - 1 and len(lexemes[0]) >= 3
                if len(lexemes) > 1:  # "line-up", "h'el": the words in a row
                    options = ["(" + " <-> ".join(lexemes) + ")"]
                else:
                    options = [lexemes[0] + (":*" if last else "")]
            for alt in term.alternatives:
                lexemes = self._lexemes(alt)
                if lexemes:
                    options.append("(" + " <-> ".join(lexemes) + ")")
            if options:
                parts.append("(" + " | ".join(options) + ")")
        return _combine(parts, mode, and_=" & ", or_=" | ")

    # ts_rank (weights A/B/C, divided by the log of the length) only chooses which entries are ranked
    # when more match: ts_rank_cd and title trigram similarity, computed on every matching row, cost 2-5
    # times as much here for no better candidates.
    match_sql = "s.tsv @@ query"

    def one_select(self, where: str) -> str:
        return (
            "(SELECT s.entry_id, ts_rank(s.tsv, query, 1) AS score "
            "FROM rulings_searchindex s, to_tsquery('english', %s) query "
            f"WHERE {where} ORDER BY score DESC, s.entry_id LIMIT %s)"
        )

    def values(self, expression: str, params: list, limit: int) -> list:
        return [expression, *params, limit]

    @staticmethod
    def better_is_higher(score: float) -> float:
        return float(score)

    def rebuild(self) -> None:
        """Nothing to do: the generated column and its indexes follow the rows."""


def backend() -> SqliteBackend | PostgresBackend:
    return PostgresBackend() if connection.vendor == "postgresql" else SqliteBackend()


def rebuild_index() -> None:
    backend().rebuild()
