//! The questions of counting, sinusoids, add or rotate, the scores, the complex view and the rotation lab.
