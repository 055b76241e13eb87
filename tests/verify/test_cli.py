"""`cotbuilder verify` usage errors exit 2 with one clear message."""


def test_bad_device_is_a_usage_error(cli, workspace):
    done = cli("verify", "--device", "tpu", workspace=workspace)
    assert done.returncode == 2 and "--device" in done.stderr


def test_unknown_unit_is_a_usage_error(cli, workspace):
    done = cli("verify", "--unit", "deadbeef", workspace=workspace)
    assert done.returncode == 2 and "deadbeef" in done.stderr
