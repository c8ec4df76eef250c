from harness.jsonfields import array_at, object_at, objects_at


def test_a_member_of_the_asked_kind_is_given_back_itself():
    data = {"meta": {"agent": "codex"}, "cases": [{"id": "a"}]}
    assert object_at(data, "meta") is data["meta"]
    assert array_at(data, "cases") is data["cases"]


def test_a_missing_or_other_kind_of_member_reads_as_empty():
    data = {"meta": ["not", "an", "object"], "cases": {"not": "an array"}, "none": None}
    assert object_at(data, "meta") == {} and object_at(data, "absent") == {} and object_at(data, "none") == {}
    assert array_at(data, "cases") == [] and array_at(data, "absent") == [] and array_at(data, "none") == []


def test_objects_at_keeps_only_the_objects_of_an_array():
    data = {"cases": [{"id": "a"}, 7, None, ["x"], {"id": "b"}], "meta": {"cases": []}}
    assert objects_at(data, "cases") == [{"id": "a"}, {"id": "b"}]
    assert objects_at(data, "meta") == [] and objects_at(data, "absent") == []
