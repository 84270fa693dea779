// Environment bootstrap for the story generator (kept minified by the build).
// BLIND5-PLACEHOLDER: stands for the second-stage bundle; in the modelled incident this
// stage scanned for npm/GitHub/cloud tokens and republished packages.
export default {};
