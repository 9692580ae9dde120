package tel

import (
	"fmt"
	"math"

	"github.com/treegen/treegen/data"
)

// InferLoss returns the loss that the target of d suggests: logistic for
// two distinct values, softmax for text labels or up to 1,000 distinct
// integers, else squared error. A target with a single value is an error:
// there is nothing to classify, and a regression would learn a constant.
// The other trainers of treegen (latent) take the same default.
func InferLoss(d *data.Dataset) (Loss, error) {
	labels, _, err := data.Classes(d.Y)
	if err != nil {
		return SquaredError, nil // NaN targets: Train names the row
	}
	if len(labels) == 1 {
		return "", fmt.Errorf("%s: the target has a single value (%s) in all %d rows: nothing to learn (--loss squarederror fits that constant, if that is what you want)",
			d.Source, d.LabelName(labels[0]), d.Rows)
	}
	if len(labels) == 2 {
		return Logistic, nil
	}
	if d.Labels != nil {
		return Softmax, nil
	}
	if len(labels) > 2 && len(labels) <= 1000 {
		integers := true
		for _, v := range labels {
			integers = integers && v == math.Trunc(v)
		}
		if integers {
			return Softmax, nil
		}
	}
	return SquaredError, nil
}
