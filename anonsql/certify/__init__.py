"""The certify step: the certificate written beside the release."""

from anonsql.certify.certificate import Certificate, certify

__all__ = ["Certificate", "certify"]
