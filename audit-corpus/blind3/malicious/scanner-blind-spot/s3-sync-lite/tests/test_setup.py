def test_credentials_present(credential_chain):
    assert credential_chain["profiles"], "no AWS profile configured"
