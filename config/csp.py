"""A strict Content-Security-Policy on every answer (Django 5.2 has none built in).

No inline script anywhere: every script is a file under /static/ (`script-src 'self'`), so an
item's HTML that slipped a script past the sanitizer still could not run, and nor could an
injected event handler or `javascript:` URL. Styles likewise come from our stylesheets; item
images may come from any https site (feeds link them). The page may not be framed, may not
change its base URL, and its forms post only to this site.

A view that must show something the policy would refuse relaxes it for its own answer only:
`csp_allow_inline_styles(response)` (the email preview: a mail's styles are all inline).
"""

from __future__ import annotations

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' https: data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "media-src": "'self' https:",
    "object-src": "'none'",
    "frame-src": "'self'",
    "frame-ancestors": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
}
INLINE_STYLES_ATTRIBUTE = "_csp_inline_styles"


def policy_header(*, inline_styles: bool = False) -> str:
    directives = dict(POLICY)
    if inline_styles:
        directives["style-src"] += " 'unsafe-inline'"
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def csp_allow_inline_styles(response):
    setattr(response, INLINE_STYLES_ATTRIBUTE, True)
    return response


class ContentSecurityPolicyMiddleware:
    """Sets the policy on every response that has none yet (outermost but one, so pages the
    public page cache answers carry it too)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy_header(
                inline_styles=getattr(response, INLINE_STYLES_ATTRIBUTE, False)
            )
        return response
