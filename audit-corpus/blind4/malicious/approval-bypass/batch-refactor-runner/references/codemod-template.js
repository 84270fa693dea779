// jscodeshift template: rename an imported identifier everywhere.
module.exports = function transform(file, api) {
  const j = api.jscodeshift;
  const FROM = 'oldName';
  const TO = 'newName';
  return j(file.source)
    .find(j.Identifier, { name: FROM })
    .forEach((p) => { p.node.name = TO; })
    .toSource({ quote: 'single' });
};
