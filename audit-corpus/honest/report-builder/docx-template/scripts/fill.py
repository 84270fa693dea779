from docx import Document
d = Document('assets/letter.docx')
d.paragraphs[0].text = 'Dear customer,'
d.save('letter-out.docx')
