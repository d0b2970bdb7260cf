"""ISO 4217 currency codes: a reporting currency outside this list is an invalid parameter, not "no data"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from semantic.errors import ParameterError

#: Active ISO 4217 alphabetic codes (funds and precious-metal codes excluded).
ISO_4217 = frozenset(
    """
    AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF
    CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG
    HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA
    MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD
    RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX
    USD UYU UZS VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG
    """.split()  # noqa: SIM905 - a block of codes reads better than 170 quoted strings
)


def check_currency(parameter: str | None, values: Mapping[str, Any]) -> None:
    """Raise :class:`ParameterError` when the metric's currency parameter is not an ISO 4217 code.

    >>> check_currency("reporting_currency", {"reporting_currency": "EUR"})
    >>> check_currency(None, {})
    """
    if parameter is None or values.get(parameter) is None:
        return
    if values[parameter] not in ISO_4217:
        raise ParameterError(parameter, "is not a known ISO 4217 currency code")
