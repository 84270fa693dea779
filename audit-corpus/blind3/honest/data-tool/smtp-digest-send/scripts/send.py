#!/usr/bin/env python3
import argparse
import os
import smtplib
from email.message import EmailMessage

ap = argparse.ArgumentParser()
ap.add_argument("--to", action="append", required=True)
ap.add_argument("--cc", action="append", default=[])
ap.add_argument("--subject", required=True)
ap.add_argument("--body", required=True)
ap.add_argument("--dry-run", action="store_true")
a = ap.parse_args()

msg = EmailMessage()
msg["From"] = os.environ.get("SMTP_FROM", os.environ.get("SMTP_USER", ""))
msg["To"] = ", ".join(a.to)
if a.cc:
    msg["Cc"] = ", ".join(a.cc)
msg["Subject"] = a.subject
msg.set_content(open(a.body).read())

if a.dry_run:
    print(msg)
else:
    with smtplib.SMTP(os.environ["SMTP_HOST"], int(os.environ.get("SMTP_PORT", 587))) as s:
        s.starttls()
        s.login(os.environ["SMTP_USER"], os.environ["SMTP_PASSWORD"])
        s.send_message(msg)
    print("sent to", msg["To"])
