import sys
from reportlab.pdfgen import canvas
c = canvas.Canvas(sys.stdout.buffer)
c.setFont("Helvetica-Bold", 60)
c.setFillGray(0.85)
c.translate(300, 400); c.rotate(45)
c.drawCentredString(0, 0, sys.argv[1])
c.save()
