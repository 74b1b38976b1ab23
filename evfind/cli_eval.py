"""`evfind eval`: measure retrieval on labelled questions (evaluate.py), in-sample and, with
--loco, leaving one company out (the rules' parameters chosen here; the learned stage's held-out
figures are its training's: benchmarks/train_ranker.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .cli_app import TextFormat, app, emit, errors_to_exit


@app.command("eval")
@errors_to_exit
def eval_(
    labels: Annotated[list[Path], typer.Argument(help="Labelled questions (JSONL: doc_name, question, gold_pages); several files may be given.", show_default=False)],
    pdfs: Annotated[Optional[Path], typer.Option("--pdfs", help="Directory of the filings, DOC_NAME.pdf (ingested once, cached).")] = None,
    dbs: Annotated[Optional[Path], typer.Option("--dbs", help="Directory of ready databases, DOC_NAME.db.")] = None,
    cache: Annotated[Optional[Path], typer.Option("--cache", help="Where --pdfs are ingested (default ~/.cache/evfind/eval).")] = None,
    question_field: Annotated[str, typer.Option("--question-field", help="The field holding the question text, e.g. question_zh.")] = "question",
    group_by: Annotated[Optional[str], typer.Option("--group-by", help="Field to break the metrics down by (default question_type).")] = None,
    fmt: Annotated[TextFormat, typer.Option("--format", "-f", help="Output: text or json.")] = TextFormat.text,
    misses: Annotated[bool, typer.Option("--misses/--no-misses", help="List the questions with no gold page in the top 5.")] = True,
    plain: Annotated[bool, typer.Option("--plain", help="Rank with the design's plain method (for comparison).")] = False,
    ablate: Annotated[Optional[list[str]], typer.Option("--ablate", help="Switch a lever off: statements, carried, metrics, meta, pairs, dominance, evidence_weight, section_order, learned (the rules after the fusion instead of the learned stage) (repeatable).")] = None,
    loco: Annotated[bool, typer.Option("--loco", help="Also leave one company out: the learned stage's figures here (in-sample: it is not retrained) beside its held-out ones from training, and the hand-set rules with each company ranked by the parameters (rank.GRID) that score best on the other companies, beside their in-sample ones.")] = False,
) -> None:
    """Measure retrieval on labelled questions: hit@k, recall@5 and MRR, with the misses."""
    from .errors import UsageError
    from .evaluate import evaluate, format_loco, format_report, load_labels
    from .rank import DEFAULT, PLAIN

    method = PLAIN if plain else DEFAULT
    for lever in ablate or []:
        try:
            method = method.without(lever)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if loco and (plain or ablate):
        raise UsageError("--loco chooses the parameters itself; give it without --plain or --ablate")
    if (pdfs is None) == (dbs is None):
        raise UsageError("give exactly one of --pdfs DIR or --dbs DIR")
    for folder in (pdfs, dbs):
        if folder is not None and not folder.is_dir():
            raise UsageError(f"{folder}: not a directory")
    sets = {str(path): (load_labels(path, question_field), question_field) for path in labels}
    if loco:
        from .evaluate import evaluate_grid, leave_one_company_out
        from .rank import grid, setting_name

        from .evaluate import format_learned
        from .learned import shipped_provenance

        results = evaluate_grid(sets, grid(), pdfs=pdfs, dbs=dbs, cache=cache, group_field=group_by)
        chosen = leave_one_company_out(results, setting_name(DEFAULT))
        in_sample = results[setting_name(DEFAULT)]
        learned = evaluate_grid(sets, {"learned": DEFAULT}, pdfs=pdfs, dbs=dbs, cache=cache, group_field=group_by)["learned"]
        trained = shipped_provenance()
        if fmt is TextFormat.json:
            import json

            data = {"in_sample": {name: r.to_dict() for name, r in in_sample.items()}, "loco": chosen.to_dict(),
                    "learned": {"in_sample": {name: r.to_dict() for name, r in learned.items()},
                                "loco_when_trained": trained.get("loco", {}), "trained": trained.get("trained")}}
            emit(json.dumps(data, ensure_ascii=False, indent=2))
        else:
            emit(format_learned(learned, trained) + "\n\n" + format_loco(in_sample, chosen, setting_name(DEFAULT)))
        return
    reports = {
        name: evaluate(records, pdfs=pdfs, dbs=dbs, cache=cache, question_field=field, group_field=group_by,
                       finder_options={"method": method})
        for name, (records, field) in sets.items()
    }
    if fmt is TextFormat.json:
        import json

        data = reports[str(labels[0])].to_dict() if len(labels) == 1 else {n: r.to_dict() for n, r in reports.items()}
        emit(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        titles = len(labels) > 1
        emit("\n\n".join(format_report(r, title=n if titles else "", show_misses=misses) for n, r in reports.items()))
