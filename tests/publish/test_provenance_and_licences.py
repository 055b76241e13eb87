"""Published provenance never carries local paths or credentials; a unit needs every licence it carries allowed."""

from cotbuilder.publish.rows import public_location


def test_local_sources_are_published_by_folder_name_only():
    assert public_location({"kind": "local", "url": "/home/alice/secret-project/examples/"}) == "local:examples"
    assert public_location({"kind": "git", "url": "/srv/mirrors/ops-math"}) == "local:ops-math"


def test_remote_sources_keep_their_url():
    url = "https://gitcode.com/cann/ops-math.git"
    assert public_location({"kind": "git", "url": url}) == url
    assert public_location({"kind": "docs", "url": "https://www.hiascend.com/doc"}) == "https://www.hiascend.com/doc"


def test_credentials_in_a_stored_source_url_are_never_published():
    """Stores written before the crawl redacted URLs may still hold a token: publishing strips it anyway."""
    token = "ghp_PublishT0kenQw8Er7Ty6Ui5Op4As3"
    assert (
        public_location({"kind": "git", "url": f"https://x-access-token:{token}@gitcode.com/o/r.git"})
        == "https://gitcode.com/o/r.git"
    )
    assert (
        public_location({"kind": "docs", "url": f"https://h/doc/index.html?access_token={token}&v=2"})
        == "https://h/doc/index.html?v=2"
    )


def test_a_unit_with_several_licences_is_allowed_only_if_each_one_is():
    from cotbuilder.publish.licenses import is_allowed

    assert is_allowed("Apache-2.0 AND MIT", ["Apache-2.0", "MIT"])
    assert not is_allowed("Apache-2.0 AND LicenseRef-CANN-Open-Software-License-2.0", ["Apache-2.0", "MIT"])
    assert not is_allowed("NOASSERTION", ["Apache-2.0"])
