"""Running the rounds: start the event, pair, re-pair, undo, swap, close, play-offs.

The engine (``tournaments.swiss``) decides; these functions load its input with the
selectors, call it, and write its answer inside one transaction.
"""

from __future__ import annotations

import dataclasses

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from .. import selectors, swiss
from ..errors import ActionError, AlreadyDone
from ..models import (
    SANCTIONED_MINIMUM_PLAYERS,
    Event,
    Registration,
    ResultChange,
    Round,
    Seat,
    SlipReport,
    Table,
)
from ..people import person_key
from ..signals import results_changed


def _locked_event(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def event_start(*, event: Event, rounds_override: int | None = None) -> Event:
    """Lock the number of Swiss rounds (9.070) and open the first round for pairing."""
    with transaction.atomic():
        event = _locked_event(event)
        if event.status != Event.Status.REGISTRATION:
            raise ActionError("This event has already started.")
        players = (
            Registration.objects.filter(event=event, checked_in=True, disqualified=False).entered().count()
        )
        if event.sanctioned and players < SANCTIONED_MINIMUM_PLAYERS:
            raise ActionError(
                f"A sanctioned event needs at least {SANCTIONED_MINIMUM_PLAYERS} checked-in players to start "
                f"(9.060); {players} checked in. Check in more players, or make the event unsanctioned."
            )
        try:
            count = swiss.swiss_rounds(players, sanctioned=event.sanctioned)
        except swiss.SwissError as exc:
            raise ActionError(str(exc)) from exc
        if rounds_override is not None and not 1 <= rounds_override <= 20:
            raise ActionError("The number of Swiss rounds must be between 1 and 20.")
        event.swiss_rounds_standard = count.rounds
        event.swiss_rounds = rounds_override or count.rounds
        event.status = Event.Status.RUNNING
        event.save(update_fields=["swiss_rounds", "swiss_rounds_standard", "status"])
    return event


def _check_next_round(event: Event, number: int) -> None:
    last = Round.objects.filter(event=event).order_by("-number").first()
    expected = (last.number + 1) if last else 1
    if number != expected:
        raise ActionError(f"Round {expected} is the next round to pair, not round {number}.")
    if last and not last.closed:
        raise ActionError(f"{last.label} is still running: close it before pairing the next round.")


def _flags_for(table: swiss.PairedTable, names: dict[str, str]) -> list[dict]:
    """The engine's flags with names instead of ids, stored with the table for the staff page."""
    return _named_flags(table.flags, names)


def _named_flags(engine_flags, names: dict[str, str], prefix: str = "") -> list[dict]:
    flags = []
    for flag in engine_flags:
        named = dataclasses.replace(
            flag,
            player=names.get(flag.player, flag.player),
            opponent=names.get(flag.opponent, flag.opponent) if flag.opponent else None,
        )
        flags.append(
            {
                "kind": flag.kind,
                "player": named.player,
                "opponent": named.opponent,
                "text": prefix + named.text,
            }
        )
    return flags


def _write_tables(round: Round, tables: list[tuple[int, tuple[str, ...], list[dict]]]) -> None:
    """Create the tables and their seats with two bulk inserts."""
    created = Table.objects.bulk_create(
        [Table(round=round, number=number, flags=flags) for number, _, flags in tables]
    )
    if any(t.pk is None for t in created):  # backends that do not return ids from bulk_create
        created = list(Table.objects.filter(round=round).order_by("number"))
    by_number = {t.number: t for t in created}
    Seat.objects.bulk_create(
        [
            Seat(table=by_number[number], round=round, registration_id=int(player), seat=i)
            for number, players, _ in tables
            for i, player in enumerate(players, start=1)
        ]
    )


def _rating_order(registrations) -> list[str]:
    """The registrations (ids) that have a rating, highest first (ratings.selectors: one query)."""
    from ratings.selectors import ratings_for  # the ratings app reads tournaments: import it here

    persons = {str(r.pk): person_key(player_id=r.player_id, user_id=r.player.user_id) for r in registrations}
    ratings = ratings_for(persons.values())
    rated = [(ratings[person].rating, pk) for pk, person in persons.items() if person in ratings]
    return [pk for _, pk in sorted(rated, key=lambda item: (-item[0], int(item[1])))]


def _pair_swiss(event: Event, number: int, attempt: int) -> list[tuple[int, tuple[str, ...], list[dict]]]:
    registrations = selectors.pairable_registrations(event)
    names = {str(r.pk): r.player.name for r in registrations}
    seeding = _rating_order(registrations) if event.seed_by_rating and number == 1 else None
    try:
        pairing = swiss.pair_round(
            list(names),
            selectors.played_rounds(event, before=number),
            seed=f"{event.seed}:{attempt}" if attempt else event.seed,
            round_number=number,
            turn_order=event.turn_order,
            policy=event.pairing_policy,
            allow_five=event.allow_five_table,
            swiss_rounds=event.swiss_rounds,
            seeding=seeding,
        )
    except swiss.FivePlayerError as exc:
        raise ActionError(
            f"{exc} Tick “Allow a 5-player table” in the event settings, or change the player list."
        ) from exc
    except swiss.SwissError as exc:
        raise ActionError(str(exc)) from exc
    return [(t.number, tuple(t.players), _flags_for(t, names)) for t in pairing.tables]


def round_pair(*, event: Event, number: int, publish: bool = False) -> Round:
    """Pair Swiss round ``number`` as a draft only staff see (``publish``: make it public at once).
    Idempotent: if it already exists it is returned, never paired twice."""
    existing = Round.objects.filter(event=event, number=number).first()
    if existing:
        return existing
    try:
        with transaction.atomic():
            event = _locked_event(event)
            existing = Round.objects.filter(event=event, number=number).first()
            if existing:
                return existing
            if event.status != Event.Status.RUNNING:
                raise ActionError("Start the event before pairing (Swiss rounds only while it runs).")
            if number > (event.swiss_rounds or 0):
                raise ActionError(
                    f"All {event.swiss_rounds} Swiss rounds are paired; start the play-offs next (9.080)."
                )
            _check_next_round(event, number)
            tables = _pair_swiss(event, number, attempt=0)
            round = Round.objects.create(
                event=event,
                number=number,
                kind=Round.Kind.SWISS,
                published_at=timezone.now() if publish else None,
            )
            _write_tables(round, tables)
            _seated_late_entries_join(round, tables)
    except IntegrityError:
        # Someone else created this round at the same moment (the unique constraint said so).
        existing = Round.objects.filter(event=event, number=number).first()
        if existing is None:
            raise
        return existing
    return round


def _check_no_results(round: Round) -> None:
    if round.closed or Table.objects.filter(round=round, result_entered_at__isnull=False).exists():
        raise ActionError(f"{round.label} already has results; correct them instead of re-pairing.")
    # A reported slip names the players of its table: moving them would hand it to someone who never saw it.
    reported = sorted(
        SlipReport.objects.filter(table__round=round, status__in=SlipReport.OPEN).values_list(
            "table__number", flat=True
        )
    )
    if reported:
        listed = ", ".join(str(n) for n in reported)
        raise ActionError(
            f"Table{'s' if len(reported) > 1 else ''} {listed} already reported a match slip: "
            "settle the report first (enter the slip), or keep the tables."
        )
    # A penalty's effect (game loss, refusing to sign) lives on the player's seat: new tables would lose it.
    penalised = Seat.objects.filter(round=round).filter(Q(game_loss=True) | Q(refused_to_sign=True))
    names = list(penalised.values_list("registration__player__name", flat=True)[:3])
    if names:
        raise ActionError(
            f"A penalty already affects this round's games ({', '.join(names)}): void it first, or keep the tables."
        )


def round_repair(*, round: Round, replaces: int | None = None) -> Round:
    """Draw the round again (e.g. after a late drop); only before its first result.

    ``replaces`` is the draw (``Round.attempt``) the organizer was looking at when they asked. If the round
    has been drawn again since (a button clicked eight times, two organizers at once), nothing is drawn:
    ``AlreadyDone`` says which draw the round is at. Without it, the round is drawn again as it is now.
    """
    with transaction.atomic():
        round = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
        if replaces is not None and replaces != round.attempt:
            raise AlreadyDone(
                f"{round.label} was already paired again (draw {round.attempt + 1}) after the page you "
                "clicked on was loaded: it was not drawn once more. Its tables below are the current ones."
            )
        _check_no_results(round)
        if round.kind != Round.Kind.SWISS:
            raise ActionError("Play-off tables follow the standings; undo the play-off round instead.")
        round.attempt += 1
        tables = _pair_swiss(round.event, round.number, attempt=round.attempt)
        Table.objects.filter(round=round).delete()
        round.paired_at = timezone.now()
        # New tables are a new draft: players keep seeing nothing rather than tables that no longer exist.
        round.published_at = None
        round.save(update_fields=["attempt", "paired_at", "published_at"])
        _write_tables(round, tables)
        _seated_late_entries_join(round, tables)
    return round


def round_publish(*, round: Round) -> Round:
    """Make a drafted round public: pairings pages, players' pages, the API and printouts show it."""
    with transaction.atomic():
        round = Round.objects.select_for_update().get(pk=round.pk)
        if round.published_at is None:
            round.published_at = timezone.now()
            round.save(update_fields=["published_at"])
    return round


def _seated_late_entries_join(round: Round, tables: list[tuple[int, tuple[str, ...], list[dict]]]) -> None:
    """A late entry added while this round was already paired was listed "from the next round"; seated
    now (the round drawn again, or undone and paired again), they play from this one."""
    seated = [int(player) for _, players, _ in tables for player in players]
    Registration.objects.filter(pk__in=seated, joined_round__gt=round.number).update(
        joined_round=round.number
    )


def round_undo(*, round: Round) -> None:
    """Delete a round that has no results yet."""
    with transaction.atomic():
        round = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
        _check_no_results(round)
        event = _locked_event(round.event)
        later = Round.objects.filter(event=event, number__gt=round.number).exists()
        if later:
            raise ActionError("Only the latest round can be undone.")
        round.delete()
        if (
            event.status == Event.Status.PLAYOFFS
            and not Round.objects.filter(
                event=event, kind__in=[Round.Kind.SEMIFINAL, Round.Kind.FINAL]
            ).exists()
        ):
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status"])


def seats_swap(*, round: Round, first: Seat, second: Seat, user=None) -> list[str]:
    """Swap two players' seats. Returns warnings (repeat opponents, points gaps) for the page to show."""
    with transaction.atomic():
        round = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
        _check_no_results(round)
        a = Seat.objects.select_related("registration__player", "table").get(pk=first.pk, round=round)
        b = Seat.objects.select_related("registration__player", "table").get(pk=second.pk, round=round)
        if a.pk == b.pk:
            raise ActionError("Choose two different players to swap.")
        # Two updates through a free seat number keep the unique constraints satisfied.
        a_table, a_seat, b_table, b_seat = a.table_id, a.seat, b.table_id, b.seat
        Seat.objects.filter(pk=a.pk).update(table_id=b_table, seat=0)
        Seat.objects.filter(pk=b.pk).update(table_id=a_table, seat=a_seat)
        Seat.objects.filter(pk=a.pk).update(seat=b_seat)
        if round.kind == Round.Kind.SWISS:
            by_table = _swap_flags(round, [a_table, b_table])
        else:
            # Play-off players differ in points and may have met: what matters is the seating 9.090-9.101
            # prescribes from the Swiss standings, which a swap departs from.
            by_table = {a_table: [], b_table: []}
            by_table[a_table].append(
                {
                    "kind": "swap_warning",
                    "player": "",
                    "opponent": None,
                    "text": f"{round.label} seating follows the Swiss standings (9.090-9.101); "
                    f"{a.registration.player.name} and {b.registration.player.name} now sit where it did "
                    "not put them.",
                }
            )
        warnings = [flag["text"] for flags in by_table.values() for flag in flags]
        moved = f"{a.registration.player.name} and {b.registration.player.name} swapped by staff"
        for table_id in {a_table, b_table}:
            # The engine's flags, worked out again for the new seating: what is still true of the players
            # who stayed is kept, what the swap changed is said.
            flags = [{"kind": "swapped", "player": "", "opponent": None, "text": moved}, *by_table[table_id]]
            Table.objects.filter(pk=table_id).update(version=F("version") + 1, flags=flags)
        ResultChange.objects.create(
            table_id=a_table,
            user=user,
            action="swap",
            before={"players": [a.registration.player.name, b.registration.player.name]},
            # Where each player sat before the swap: the public pages mark a swap made after publishing.
            after={"tables": [a.table.number, b.table.number], "seats": [a_seat, b_seat]},
            # The field holds 300 characters (PostgreSQL refuses more); the page shows every warning.
            reason="; ".join(warnings)[:300],
        )
    return warnings


def _swap_flags(round: Round, table_ids: list[int]) -> dict[int, list[dict]]:
    """Per table, the engine's flags for its seating now (``swiss.table_flags``: repeat opponents,
    pull-downs, a second 3-player table), each prefixed with the table's number for the page's warnings."""
    played = selectors.played_rounds(round.event, before=round.number)
    flags: dict[int, list[dict]] = {}
    for table in Table.objects.filter(pk__in=set(table_ids)).order_by("number"):
        seats = list(Seat.objects.filter(table=table).select_related("registration__player").order_by("seat"))
        names = {str(s.registration_id): s.registration.player.name for s in seats}
        engine = swiss.table_flags([str(s.registration_id) for s in seats], played)
        flags[table.pk] = _named_flags(engine, names, prefix=f"Table {table.number}: ")
    return flags


def round_close(*, round: Round) -> Round:
    with transaction.atomic():
        round = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
        if round.closed:
            return round
        if not round.published:
            # Closing counts the results in the public standings: players must have seen the tables first.
            raise ActionError(f"Publish {round.label.lower()} first: its tables are a draft only staff see.")
        missing = list(
            Table.objects.filter(round=round, result_entered_at__isnull=True).values_list("number", flat=True)
        )
        if missing:
            raise ActionError(_missing_results(round, missing))
        round.status = Round.Status.CLOSED
        round.closed_at = timezone.now()
        round.save(update_fields=["status", "closed_at"])
        Event.objects.filter(pk=round.event_id).update(results_version=F("results_version") + 1)
        if round.kind == Round.Kind.FINAL:
            Event.objects.filter(pk=round.event_id).update(status=Event.Status.FINISHED)
        # Compute the new standings once, now, rather than in the first of many page requests.
        transaction.on_commit(lambda: standings_warm(event_id=round.event_id))
        results_changed.send(sender=Event, event_id=round.event_id)
    return round


def _missing_results(round: Round, missing: list[int]) -> str:
    """Why the round cannot close: which tables wait for the players' confirmations or a judge, and
    which have nothing reported."""
    reported = dict(
        SlipReport.objects.filter(table__round=round, status__in=SlipReport.OPEN).values_list(
            "table__number", "status"
        )
    )

    def shown(numbers: list[int]) -> str:
        return ", ".join(str(n) for n in numbers[:10]) + ("…" if len(numbers) > 10 else "")

    disputed = [n for n in missing if reported.get(n) == SlipReport.Status.DISPUTED]
    waiting = [n for n in missing if reported.get(n) == SlipReport.Status.PENDING]
    nothing = [n for n in missing if n not in reported]
    parts = []
    if disputed:
        parts.append(f"disputed, a judge settles {'it' if len(disputed) == 1 else 'them'}: {shown(disputed)}")
    if waiting:
        parts.append(f"reported, waiting for confirmations: {shown(waiting)}")
    if nothing:
        parts.append(f"nothing reported: {shown(nothing)}")
    tables = "table has" if len(missing) == 1 else "tables have"
    return f"{len(missing)} {tables} no result yet ({'; '.join(parts)})."


def standings_warm(*, event_id: int) -> None:
    """Compute (and cache) the standings and, once the final is closed, the final ranking."""
    event = Event.objects.get(pk=event_id)
    selectors.event_standings(event)
    final_ranking(event)


def round_reopen(*, round: Round) -> Round:
    """Open a closed round again (to correct several results); only the latest round."""
    with transaction.atomic():
        round = Round.objects.select_for_update().get(pk=round.pk)
        if Round.objects.filter(event_id=round.event_id, number__gt=round.number).exists():
            raise ActionError("Only the latest round can be reopened; later rounds are paired from it.")
        round.status = Round.Status.PAIRED
        round.closed_at = None
        round.save(update_fields=["status", "closed_at"])
        Event.objects.filter(pk=round.event_id).update(
            results_version=F("results_version") + 1, status=_running_status(round)
        )
        results_changed.send(sender=Event, event_id=round.event_id)
    return round


def _running_status(round: Round) -> str:
    return Event.Status.RUNNING if round.kind == Round.Kind.SWISS else Event.Status.PLAYOFFS


# --- Play-offs (9.080-9.101) -------------------------------------------------------------


def playoff_eligible(event: Event) -> set[str]:
    return {
        str(pk)
        for pk in Registration.objects.filter(
            event=event, dropped_at__isnull=True, disqualified=False
        ).values_list("pk", flat=True)
    }


def playoffs_proposal(event: Event) -> swiss.Playoffs:
    """The cut the app proposes: top 4 final or top 8 semi-finals, skipping dropped and disqualified players."""
    order = [str(line.registration.pk) for line in selectors.event_standings(event)]
    try:
        return swiss.playoff_tables(order, event.swiss_rounds or 0, playoff_eligible(event))
    except swiss.SwissError as exc:
        raise ActionError(str(exc)) from exc


def playoffs_start(*, event: Event, publish: bool = False) -> Round:
    """Seat the first play-off round; turn order is the Swiss standing order (9.100, 9.101)."""
    with transaction.atomic():
        event = _locked_event(event)
        if event.status != Event.Status.RUNNING:
            raise ActionError("The play-offs start once, after the Swiss rounds.")
        closed = Round.objects.filter(event=event, kind=Round.Kind.SWISS, status=Round.Status.CLOSED).count()
        if closed < (event.swiss_rounds or 0):
            raise ActionError(f"Close all {event.swiss_rounds} Swiss rounds first ({closed} closed).")
        proposal = playoffs_proposal(event)
        kind = Round.Kind.FINAL if proposal.stage == "final" else Round.Kind.SEMIFINAL
        round = Round.objects.create(
            event=event, number=closed + 1, kind=kind, published_at=timezone.now() if publish else None
        )
        _write_tables(round, [(t.number, tuple(t.players), []) for t in proposal.tables])
        event.status = Event.Status.PLAYOFFS
        event.save(update_fields=["status"])
    return round


def _placement_order(round: Round) -> list[list[str]]:
    order: dict[int, list[tuple[int, str]]] = {}
    for table_number, placement, reg_id in Seat.objects.filter(round=round).values_list(
        "table__number", "placement", "registration_id"
    ):
        order.setdefault(table_number, []).append((placement, str(reg_id)))
    return [[p for _, p in sorted(order[n])] for n in sorted(order)]


def final_start(*, event: Event, publish: bool = False) -> Round:
    """The final after the semi-finals: 1st and 2nd of each, in Swiss standing order."""
    with transaction.atomic():
        event = _locked_event(event)
        semi = Round.objects.filter(event=event, kind=Round.Kind.SEMIFINAL).first()
        if semi is None or not semi.closed:
            raise ActionError("Close the semi-finals first.")
        if Round.objects.filter(event=event, kind=Round.Kind.FINAL).exists():
            raise ActionError("The final is already seated.")
        order = [str(line.registration.pk) for line in selectors.event_standings(event)]
        try:
            table = swiss.final_table(_placement_order(semi), order)
        except swiss.SwissError as exc:
            raise ActionError(str(exc)) from exc
        round = Round.objects.create(
            event=event,
            number=semi.number + 1,
            kind=Round.Kind.FINAL,
            published_at=timezone.now() if publish else None,
        )
        _write_tables(round, [(1, tuple(table.players), [])])
    return round


def final_ranking(event: Event, *, limit: int | None = None) -> list[Registration]:
    """The event's final ranking once the final is closed, else []. ``limit``: only the first places.

    Cached with the standings, so pages polled all day do not rebuild it.
    """
    final = Round.objects.filter(event=event, kind=Round.Kind.FINAL, status=Round.Status.CLOSED).first()
    if final is None:
        return []
    key = f"{selectors.standings_key(event)}:final:{final.pk}:{final.closed_at.isoformat()}"
    ranking = cache.get(key)
    if ranking is None:
        order = [str(line.registration.pk) for line in selectors.event_standings(event)]
        semi = Round.objects.filter(event=event, kind=Round.Kind.SEMIFINAL).first()
        ranking = list(
            swiss.final_ranking(order, _placement_order(final)[0], _placement_order(semi) if semi else ())
        )
        cache.set(key, ranking, 3600)
    wanted = ranking[:limit] if limit else ranking
    by_id = {str(r.pk): r for r in Registration.objects.filter(pk__in=wanted).select_related("player")}
    return [by_id[p] for p in wanted if p in by_id]
