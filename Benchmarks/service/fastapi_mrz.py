#!/usr/bin/env python3
"""What a backend team would build instead of `idkit serve` for MRZ checks (issue 15): a FastAPI
service on uvicorn wrapping PyPI's `mrz` package, with the same request as /v1/mrz (text/plain,
one MRZ) and a JSON answer of the fields and check-digit verdicts. Only for the benchmark.

    python3 Benchmarks/service/fastapi_mrz.py PORT        (needs: pip install fastapi uvicorn mrz)
"""
import sys

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from mrz.checker.td1 import TD1CodeChecker
from mrz.checker.td2 import TD2CodeChecker
from mrz.checker.td3 import TD3CodeChecker

app = FastAPI()
CHECKERS = {30: TD1CodeChecker, 36: TD2CodeChecker, 44: TD3CodeChecker}


@app.post("/v1/mrz")
async def mrz(request: Request):
    text = (await request.body()).decode("utf-8", "replace").strip()
    lines = text.split("\n")
    checker = CHECKERS.get(len(lines[0]))
    if checker is None:
        return JSONResponse({"valid": False, "errors": ["unknown layout"]})
    try:
        c = checker(text)
    except Exception as e:  # the package raises on malformed input
        return JSONResponse({"valid": False, "errors": [str(e)]})
    return JSONResponse({"valid": bool(c), "fields": c.fields()._asdict(), "report": str(c.report)})


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", access_log=False)
