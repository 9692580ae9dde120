package codegen

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/internal/version"
	"github.com/treegen/treegen/ir"
)

// PackagePlan is what [Plan] decided about a generated package before
// anything is emitted: the model, the backend and why, its options, the
// precision, the model that the code computes exactly, and the lines of
// the header. [PackagePlan.Generate] emits exactly what it says, so that
// a command line can show the same decisions in its summary, measure an
// approximation against the same Effective model, and write the files,
// without deciding anything twice.
//
// Read its fields freely. Change the backend's options only with
// [PackagePlan.SetBackendOptions], which validates them and recomputes
// Effective and Approximation; Measured, Source and OmitVersion may be
// set directly (Generate checks Package again).
type PackagePlan struct {
	// Model is the validated model.
	Model *ir.Model
	// Backend is the backend that compiles Model: the one named by
	// [Options].Backend, or the one that [Auto] picked. Its Check accepted
	// Model.
	Backend Backend
	// Auto reports whether [Auto] picked Backend, and Why says why, in the
	// sentence that the header of every file gives ("" when the backend
	// was named).
	Auto bool
	Why  string
	// BackendOptions are Backend's own options, validated: those of
	// [Options].BackendOptions, or Backend's defaults.
	BackendOptions BackendOptions
	// Precision is the working precision, Float64 or Float32: that of
	// [Options].Precision, or the one the model records
	// (ir.Model.RecordedPrecision).
	Precision Precision
	// Effective is the model that the code computes exactly, bit for bit
	// as the interpreter computes it (BackendOptions.Effective): Model
	// itself when the code is exact. Approximation says how the code
	// differs from Model, in a sentence; "" when it is exact.
	Effective     *ir.Model
	Approximation string
	// Package, Source, OmitVersion and Measured are those of [Options]:
	// the package name (valid) and what the header says.
	Package     string
	Source      string
	OmitVersion bool
	Measured    string

	// checks holds the results of the backends' Check on Model, each
	// run at most once; planned is the backend that Plan checked.
	checks  *checker
	planned Backend
}

// Plan validates m and opts and decides everything that [Generate] needs
// before it emits anything: the package name, the precision (an empty
// one is the precision the model records), the model (m.Validate), the
// backend (the named one, or the one [Auto] picks by [Choose], and why),
// its options, and whether it compiles m (its Check, with the reason when
// it does not). Each backend's Check runs at most once, whether for auto's
// rule or for the backend finally named.
//
// A caller that knows the backend's options only once the backend is
// known (a command line whose flags belong to backends) plans with
// opts.BackendOptions nil, which means the backend's defaults, and then
// calls [PackagePlan.SetBackendOptions] with the options of Backend.
//
// Errors name the problem: a bad package name, an unknown precision or
// backend, options of another backend or invalid ones, an invalid model
// (with the JSON path of the culprit), or a model that the backend cannot
// compile (with the backend's reason).
func Plan(m *ir.Model, opts Options) (*PackagePlan, error) {
	if err := ValidPackageName(opts.Package); err != nil {
		return nil, err
	}
	prec := opts.Precision
	if prec != "" {
		p, err := ParsePrecision(string(prec))
		if err != nil {
			return nil, err
		}
		prec = p
	}
	auto := opts.Backend == "" || opts.Backend == Auto
	var b Backend
	var bopts BackendOptions
	if !auto {
		var err error
		if b, err = LookupBackend(opts.Backend); err != nil {
			return nil, err
		}
		if bopts, err = backendOptions(b, opts.BackendOptions, false); err != nil {
			return nil, err
		}
	}
	if m == nil {
		return nil, errors.New("invalid model: no model")
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("invalid model: %w", err)
	}
	if prec == "" {
		prec = m.RecordedPrecision()
	}
	p := &PackagePlan{
		Model:       m,
		Auto:        auto,
		Precision:   prec,
		Package:     opts.Package,
		Source:      opts.Source,
		OmitVersion: opts.OmitVersion,
		Measured:    opts.Measured,
		checks:      newChecker(m),
	}
	if auto {
		c, err := choose(p.checks)
		if err != nil {
			return nil, err
		}
		b, p.Why = c.Backend, c.Why
		if bopts, err = backendOptions(b, opts.BackendOptions, true); err != nil {
			return nil, err
		}
	}
	if err := p.checks.check(b); err != nil {
		return nil, fmt.Errorf("%s backend: %w", b.Name(), err)
	}
	p.Backend, p.planned = b, b
	p.setOptions(bopts)
	return p, nil
}

// SetBackendOptions sets the options of the plan's backend, nil meaning
// its defaults, after checking that they are the backend's and valid, and
// recomputes Effective and Approximation. The error says whose options
// they are, and, when [Auto] picked the backend, that it did.
func (p *PackagePlan) SetBackendOptions(opts BackendOptions) error {
	if p.checks == nil {
		return errNotPlanned
	}
	o, err := backendOptions(p.planned, opts, p.Auto)
	if err != nil {
		return err
	}
	p.setOptions(o)
	return nil
}

// setOptions sets the validated options o, and Effective and
// Approximation from them.
func (p *PackagePlan) setOptions(o BackendOptions) {
	p.BackendOptions = o
	p.Effective, p.Approximation = o.Effective(p.Model)
}

// Check returns the result of b's Check on the plan's model: nil when b
// compiles it, else the reason. It runs each backend's Check at most once
// in the life of the plan, sharing the results that Plan obtained, so that
// a caller can say which other backends would compile the model (a
// smaller package, say) at little cost.
func (p *PackagePlan) Check(b Backend) error {
	if p.checks == nil {
		return errNotPlanned
	}
	return p.checks.check(b)
}

// errNotPlanned is the error of a PackagePlan that Plan did not make.
var errNotPlanned = errors.New("codegen: a PackagePlan must be made by codegen.Plan")

// Generate returns the files of the package that the plan describes,
// sorted by name. The same plan gives the same bytes. It fails if the
// plan's Model or Backend were changed after [Plan], or Package is no
// longer a valid package name.
func (p *PackagePlan) Generate() ([]File, error) {
	switch {
	case p.checks == nil:
		return nil, errNotPlanned
	case p.Model != p.checks.m || p.Backend == nil || p.Backend.Name() != p.planned.Name() ||
		reflect.TypeOf(p.BackendOptions) != reflect.TypeOf(p.planned.NewOptions()):
		return nil, errors.New("codegen: the plan's model, backend or backend options changed after Plan: plan again (or set options with SetBackendOptions)")
	}
	if err := ValidPackageName(p.Package); err != nil {
		return nil, err
	}
	b, m, bopts := p.planned, p.Model, p.BackendOptions
	g, err := emit.NewGen(m, p.Precision)
	if err != nil {
		return nil, err
	}
	units, err := b.Units(g, bopts)
	if err != nil {
		return nil, fmt.Errorf("%s backend: %w", b.Name(), err)
	}
	var vector []jen.Code
	if v, ok := b.(emit.Vectorizer); ok {
		if vector, err = v.Vector(g, bopts); err != nil {
			return nil, fmt.Errorf("%s backend: %w", b.Name(), err)
		}
	}
	hash, err := ir.Hash(m)
	if err != nil {
		return nil, err
	}
	ver := version.Version
	if p.OmitVersion {
		ver = ""
	}
	approx := p.Approximation
	if approx != "" && p.Measured != "" {
		approx += " " + p.Measured
	}
	header := emit.HeaderLines(ver, p.Source, hash, b.Name(), g.Prec, bopts.String(), approx)
	if p.Auto {
		header = append(header, emit.AutoLines(p.Why)...)
	}
	return layout(g, units, vector, emit.MainSpec{
		Package:       p.Package,
		Header:        header,
		Hash:          hash,
		Backend:       b.Name(),
		Approximation: approx,
	})
}

// backendOptions returns opts, or b's defaults for nil, after checking
// that they are b's and valid; auto says that Auto picked b.
func backendOptions(b Backend, opts BackendOptions, auto bool) (BackendOptions, error) {
	def := b.NewOptions()
	if opts == nil {
		return def, nil
	}
	if reflect.TypeOf(opts) != reflect.TypeOf(def) {
		picked := ""
		if auto {
			picked = ", which " + Auto + " picked for this model"
		}
		return nil, fmt.Errorf("options of type %T are not those of the %s backend (%T)%s", opts, b.Name(), def, picked)
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return opts, nil
}

// checker runs the backends' Check on one model, each at most once.
type checker struct {
	m    *ir.Model
	errs map[string]error // by backend name
}

// newChecker returns a checker for the validated model m.
func newChecker(m *ir.Model) *checker {
	return &checker{m: m, errs: map[string]error{}}
}

// check returns b.Check(m), running it only the first time.
func (c *checker) check(b Backend) error {
	if err, ok := c.errs[b.Name()]; ok {
		return err
	}
	err := runCheck(b, c.m)
	c.errs[b.Name()] = err
	return err
}

// runCheck runs b's Check on m; a test counts the calls.
var runCheck = func(b Backend, m *ir.Model) error { return b.Check(m) }
