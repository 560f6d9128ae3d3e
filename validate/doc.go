// Package validate owns premise's file formats (the assumption register and
// the partition table) with strict schemas, and the filter that keeps only
// candidate rows citing a real changed symbol and quoting the real diff.
package validate
