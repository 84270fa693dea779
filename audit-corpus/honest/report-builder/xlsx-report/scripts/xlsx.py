import sqlite3
from openpyxl import Workbook
wb = Workbook(); ws = wb.active
for row in sqlite3.connect("app.db").execute("select name, total from orders"):
    ws.append(row)
wb.save("orders.xlsx")
