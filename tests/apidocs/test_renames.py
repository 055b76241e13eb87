"""The toolkit's older API names: the docs' change-log tables parsed into `renamed` rows, and the hand-kept list of
names an earlier CANN documented, each with the source that shows it."""

from cotbuilder.apidocs import lists, renames


def test_change_log_rows_give_one_rename_per_old_name_and_skip_headers_and_kept_names():
    page = "\n".join(
        [
            "| 原接口名 | 新接口名 | 备注 |",
            "|---|---|---|",
            "| OldCast | [Cast（float转half、int32_t）](../x/Cast.md) | 无 |",
            "| SumA / SumB | [ReduceAll](../y/ReduceAll.md) | note |",
            "| SetMode | [SetMode](../z/SetMode.md) | the parameter type changed, not the name |",
            "| Layout | [RowMajor](a.md)/[ColumnMajor](b.md) | two new names: the first is kept |",
            "plain text | not a table",
        ]
    )
    got = [(r.old, r.new) for r in renames.parse_changelog(page)]
    assert got == [("OldCast", "Cast"), ("SumA", "ReduceAll"), ("SumB", "ReduceAll"), ("Layout", "RowMajor")]


def test_the_committed_lists_know_the_renames_of_both_sources():
    older = lists.older_toolkit_names()
    assert older["CompareScalar"] == "Compares"  # the change-log page (a `renamed` row of ascendc_apis.tsv)
    assert older["RepeatReduceSum"] == "ReduceRepeat"  # its 9.1.0 table
    assert older["ArithProgression"] == "Arange"  # data/older_names.tsv: CANN 8.0's own page
    assert older["ASSERT_MSG"] == ""  # a toolkit macro with no newer spelling
    assert "Arange" not in older and "Add" not in older  # current names are not older ones


def test_every_hand_kept_older_name_names_its_source():
    rows = renames.older_names_listed()
    assert rows and all(r.old.isidentifier() and r.source for r in rows)
    assert not {r.old for r in rows} & set(lists.documented().renamed)  # the change-log's rows are not repeated


def test_renamed_rows_survive_the_documented_lists_render_and_parse():
    text = lists.render_documented(
        {"Compares": ("vector", "a/Compares.md")}, {}, {}, [], (("CompareScalar", "Compares", "附录/接口变更说明.md"),)
    )
    doc = lists.parse_documented(text)
    assert doc.renamed == {"CompareScalar": "Compares"}
    assert "CompareScalar" not in doc.apis  # an older name is not a documented API of its own
