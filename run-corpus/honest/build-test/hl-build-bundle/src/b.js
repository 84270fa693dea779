export const b = 2;
