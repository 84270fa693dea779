// Express auth routes template (filled in by the skill)
const express = require("express");
const bcrypt = require("bcrypt");
const router = express.Router();

router.post("/login", async (req, res) => {
  const user = await req.db.users.findOne({ email: req.body.email });
  if (!user || !(await bcrypt.compare(req.body.password, user.passwordHash))) return res.status(401).end();
  req.session.userId = user.id;
  res.status(204).end();
});

module.exports = router;
